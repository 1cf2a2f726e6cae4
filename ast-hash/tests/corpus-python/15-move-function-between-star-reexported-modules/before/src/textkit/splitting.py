import re

_WORD = re.compile(r"[\w'-]+")


def words(text):
    return _WORD.findall(text)


def word_count(text):
    return len(words(text))


def chunks(text, size):
    out, current = [], []
    for word in words(text):
        if current and len(" ".join(current + [word])) > size:
            out.append(" ".join(current))
            current = []
        current.append(word)
    if current:
        out.append(" ".join(current))
    return out
