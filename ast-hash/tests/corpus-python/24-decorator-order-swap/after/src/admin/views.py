"""Back-office pages. Every view below must require an authenticated admin."""

from functools import wraps

from .web import abort, app, current_user, render


def admin_required(view):
    @wraps(view)
    def guarded(*args, **kwargs):
        user = current_user()
        if user is None or not user.is_admin:
            abort(403)
        return view(*args, **kwargs)

    return guarded


@app.route("/admin/")
@admin_required
def dashboard():
    return render("admin/dashboard.html")


@app.route("/admin/users/<int:user_id>")
@admin_required
def user_detail(user_id):
    return render("admin/user.html", user_id=user_id)


@admin_required
@app.route("/admin/users/<int:user_id>/disable", methods=["POST"])
def disable_user(user_id):
    app.db.users.update(user_id, active=False)
    return render("admin/user.html", user_id=user_id, flash="User disabled.")
