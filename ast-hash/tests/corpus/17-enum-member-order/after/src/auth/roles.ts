export enum Role {
  Owner,
  Admin,
  Editor,
  Viewer,
}

export enum Permission {
  ReadProjects = "projects:read",
  WriteProjects = "projects:write",
  ManageBilling = "billing:manage",
  ManageMembers = "members:manage",
}

const GRANTS: Record<Role, Permission[]> = {
  [Role.Viewer]: [Permission.ReadProjects],
  [Role.Editor]: [Permission.ReadProjects, Permission.WriteProjects],
  [Role.Admin]: [Permission.ReadProjects, Permission.WriteProjects, Permission.ManageMembers],
  [Role.Owner]: [Permission.ReadProjects, Permission.WriteProjects, Permission.ManageMembers, Permission.ManageBilling],
};

export function can(role: Role, permission: Permission): boolean {
  return GRANTS[role].includes(permission);
}

export function atLeast(role: Role, minimum: Role): boolean {
  return role >= minimum;
}

// Roles are persisted as integers in the memberships.role column.
export function roleFromColumn(value: number): Role {
  if (!(value in Role)) throw new RangeError(`unknown role ${value}`);
  return value as Role;
}
