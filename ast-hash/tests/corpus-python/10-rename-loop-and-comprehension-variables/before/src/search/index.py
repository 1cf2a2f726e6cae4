"""An in-memory inverted index for the help-centre search box."""

import re
from collections import Counter, defaultdict

_TOKEN = re.compile(r"[a-z0-9]+")
STOP_WORDS = frozenset({"a", "an", "and", "the", "to", "of", "in", "how", "do", "i"})


def tokenize(text):
    tokens = [t for t in _TOKEN.findall(text.lower()) if t not in STOP_WORDS]
    return tokens


class Index:
    def __init__(self):
        self._postings = defaultdict(Counter)
        self._titles = {}

    def add(self, doc_id, title, body):
        self._titles[doc_id] = title
        for w in tokenize(title):
            self._postings[w][doc_id] += 3
        for w in tokenize(body):
            self._postings[w][doc_id] += 1

    def search(self, query, limit=10):
        scores = Counter()
        for q in tokenize(query):
            for k, v in self._postings.get(q, {}).items():
                scores[k] += v
        hits = [(d, self._titles[d], s) for d, s in scores.most_common(limit)]
        return hits

    def vocabulary(self):
        words = sorted({x for x, p in self._postings.items() if p})
        return words

    def document_frequency(self):
        df = {x: len(p) for x, p in self._postings.items()}
        return df
