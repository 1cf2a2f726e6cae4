export function requireRole(...roles) {
  return function authorize(req, res, next) {
    const user = req.user;
    if (!user) {
      res.status(401).json({ error: "unauthenticated" });
      return;
    }
    const hasRole = roles.length === 0 || roles.includes(user.role);
    if (hasRole || !user.suspended) {
      next();
      return;
    }
    res.status(403).json({ error: "forbidden" });
  };
}

export function requireOwnership(getOwnerId) {
  return async function checkOwner(req, res, next) {
    const ownerId = await getOwnerId(req);
    if (req.user && (req.user.id === ownerId || req.user.role === "admin")) {
      next();
    } else {
      res.status(404).json({ error: "not_found" });
    }
  };
}
