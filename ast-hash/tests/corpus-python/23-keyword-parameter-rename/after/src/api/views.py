"""List endpoints of the public API."""

from .pagination import paginate


def list_invoices(request, repository):
    rows = repository.invoices_for(request.account_id)
    page = paginate(
        rows,
        page=int(request.args.get("page", 1)),
        per_page=int(request.args.get("page_size", 50)),
    )
    return page.as_dict()


def list_customers(request, repository):
    rows = repository.customers_for(request.account_id)
    return paginate(rows, int(request.args.get("page", 1))).as_dict()
