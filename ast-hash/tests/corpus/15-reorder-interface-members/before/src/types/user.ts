export type UserRole = "owner" | "admin" | "member" | "guest";

export interface Address {
  line1: string;
  line2?: string;
  city: string;
  postalCode: string;
  country: string;
}

export interface UserProfile {
  id: string;
  email: string;
  displayName: string;
  avatarUrl?: string;
  role: UserRole;
  createdAt: Date;
  lastLoginAt: Date | null;
  readonly tenantId: string;
  address?: Address;
  preferences: {
    locale: string;
    timezone: string;
    marketingEmails: boolean;
  };
}

export function isPrivileged(user: Pick<UserProfile, "role">): boolean {
  return user.role === "owner" || user.role === "admin";
}

export function displayLabel(user: Pick<UserProfile, "displayName" | "email">): string {
  return user.displayName.trim() || user.email;
}
