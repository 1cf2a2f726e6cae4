"""Server-side validation of the sign-up form."""

import re

EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$", re.IGNORECASE)
MIN_PASSWORD = 10


def validate_signup(form):
    errors = {}

    def require(field, ok, message):
        if field not in errors and not ok:
            errors[field] = message

    email = form.get("email", "").strip()
    password = form.get("password", "")
    require("email", bool(email), "Please enter your e-mail address.")
    require("email", EMAIL.match(email) is not None, "This does not look like an e-mail address.")
    require("password", len(password) >= MIN_PASSWORD, "Use at least %d characters." % MIN_PASSWORD)
    require("password", password.lower() != email.lower(), "The password must differ from the e-mail.")
    require("terms", form.get("terms") == "on", "Please accept the terms of service.")
    return errors


def normalize_signup(form):
    def collapse_spaces(s):
        return " ".join(s.split())

    return {
        "email": form.get("email", "").strip().lower(),
        "name": collapse_spaces(form.get("name", "")),
        "company": collapse_spaces(form.get("company", "")) or None,
    }
