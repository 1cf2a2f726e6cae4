export const ROLE_RANK = { viewer: 1, commenter: 2, editor: 3, admin: 4 };

export function canViewDocument(user, doc) {
  return doc.visibility === "public" || doc.sharedWith.includes(user.id) || canEditDocument(user, doc);
}

export function canEditDocument(user, doc) {
  return (
    user.id === doc.ownerId ||
    doc.collaborators.includes(user.id) ||
    user.role === "admin"
  );
}

export function canDeleteDocument(user, doc) {
  if (doc.locked) {
    return false;
  }
  return user.id === doc.ownerId || user.role === "admin";
}

export function highestRole(roles) {
  return roles.reduce((best, role) => (ROLE_RANK[role] > ROLE_RANK[best] ? role : best), "viewer");
}
