"""An in-memory inverted index for the help-centre search box."""

import re
from collections import Counter, defaultdict

_TOKEN = re.compile(r"[a-z0-9]+")
STOP_WORDS = frozenset({"a", "an", "and", "the", "to", "of", "in", "how", "do", "i"})


def tokenize(text):
    tokens = [token for token in _TOKEN.findall(text.lower()) if token not in STOP_WORDS]
    return tokens


class Index:
    def __init__(self):
        self._postings = defaultdict(Counter)
        self._titles = {}

    def add(self, doc_id, title, body):
        self._titles[doc_id] = title
        for word in tokenize(title):
            self._postings[word][doc_id] += 3
        for word in tokenize(body):
            self._postings[word][doc_id] += 1

    def search(self, query, limit=10):
        scores = Counter()
        for term in tokenize(query):
            for doc_id, weight in self._postings.get(term, {}).items():
                scores[doc_id] += weight
        hits = [(doc, self._titles[doc], score) for doc, score in scores.most_common(limit)]
        return hits

    def vocabulary(self):
        words = sorted({term for term, postings in self._postings.items() if postings})
        return words

    def document_frequency(self):
        df = {term: len(postings) for term, postings in self._postings.items()}
        return df
