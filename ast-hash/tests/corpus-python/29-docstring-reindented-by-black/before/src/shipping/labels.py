"""Shipping label numbers (ITF-style check digit)."""


def check_digit(digits):
  """ Return the mod-10 check digit for a string of digits.

  Weights alternate 3, 1 starting from the rightmost digit.  
  The CLI prints this docstring as the help text of ``labels check``.
  """
  total = 0
  for position, char in enumerate(reversed(digits)):
    weight = 3 if position % 2 == 0 else 1
    total += int(char) * weight
  return (10 - total % 10) % 10


def make_label(prefix, serial, width=12):
  """Build a label number: prefix, zero-padded serial, check digit.

  Raises ValueError if the result would not fit in ``width`` digits.
  """
  body = "%s%0*d" % (prefix, width - len(prefix) - 1, serial)
  if len(body) != width - 1 or not body.isdigit():
    raise ValueError("cannot build a %d-digit label from %r/%r" % (width, prefix, serial))
  return body + str(check_digit(body))


def is_valid(label):
  """True if ``label`` is all digits and its last digit checks out."""
  return label.isdigit() and len(label) > 1 and check_digit(label[:-1]) == int(label[-1])
