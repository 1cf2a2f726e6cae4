export type UserRole = "owner" | "admin" | "member" | "guest";

export interface Address {
  country: string;
  postalCode: string;
  city: string;
  line1: string;
  line2?: string;
}

export interface UserProfile {
  readonly tenantId: string;
  id: string;
  role: UserRole;
  email: string;
  displayName: string;
  avatarUrl?: string;
  address?: Address;
  preferences: {
    timezone: string;
    locale: string;
    marketingEmails: boolean;
  };
  createdAt: Date;
  lastLoginAt: Date | null;
}

export function isPrivileged(user: Pick<UserProfile, "role">): boolean {
  return user.role === "owner" || user.role === "admin";
}

export function displayLabel(user: Pick<UserProfile, "displayName" | "email">): string {
  return user.displayName.trim() || user.email;
}
