import { randomBytes } from "node:crypto";

export interface Session {
  id: string;
  userId: string;
  createdAt: number;
  expiresAt: number;
  data: Record<string, unknown>;
}

export interface SessionStore {
  get(id: string): Promise<Session | undefined>;
  set(session: Session): Promise<void>;
  delete(id: string): Promise<void>;
}

const SESSION_TTL_MS = 1000 * 60 * 60 * 12;

export async function createSession(store: SessionStore, userId: string, now = Date.now()): Promise<Session> {
  const session: Session = { id: newSessionId(), userId, createdAt: now, expiresAt: now + SESSION_TTL_MS, data: {} };
  await store.set(session);
  return session;
}

export async function loadSession(store: SessionStore, id: string, now = Date.now()): Promise<Session | undefined> {
  const session = await store.get(id);
  if (!session) return undefined;
  if (isExpired(session, now)) {
    await store.delete(id);
    return undefined;
  }
  return session;
}

export async function touchSession(store: SessionStore, session: Session, now = Date.now()): Promise<Session> {
  const refreshed = { ...session, expiresAt: now + SESSION_TTL_MS };
  await store.set(refreshed);
  return refreshed;
}

function isExpired(session: Session, now: number): boolean {
  return session.expiresAt <= now;
}

function newSessionId(): string {
  return randomBytes(24).toString("base64url");
}
