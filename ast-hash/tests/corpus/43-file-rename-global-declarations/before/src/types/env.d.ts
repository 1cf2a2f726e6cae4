// Ambient declarations for environment variables. This is a global script
// (no import/export), picked up by the "include": ["src"] glob of tsconfig.json.

declare namespace NodeJS {
  interface ProcessEnv {
    readonly NODE_ENV: "development" | "test" | "production";
    readonly DATABASE_URL: string;
    readonly REDIS_URL?: string;
    readonly JWT_SECRET: string;
    readonly STRIPE_SECRET_KEY: string;
    readonly STRIPE_WEBHOOK_SECRET: string;
    readonly PUBLIC_BASE_URL: string;
    readonly LOG_LEVEL?: "error" | "warn" | "info" | "debug";
  }
}

interface ImportMetaEnv {
  readonly VITE_API_URL: string;
  readonly VITE_SENTRY_DSN?: string;
  readonly VITE_RELEASE?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
