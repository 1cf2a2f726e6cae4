export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type RouteHandler<TBody = unknown> = (request: { method: HttpMethod; path: string; params: Record<string, string>; body: TBody }) => Promise<{ status: number; body?: unknown }>;

export interface Route { method: HttpMethod; pattern: RegExp; keys: string[]; handler: RouteHandler }

export function compilePath(path: string): { pattern: RegExp; keys: string[] } {
  const keys: string[] = [];
  const source = path.split("/").map((segment) => {
    if (segment.startsWith(":")) {
      keys.push(segment.slice(1));
      return "([^/]+)";
    }
    return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }).join("/");
  return { pattern: new RegExp(`^${source}/?$`), keys };
}

export function matchRoute(routes: Route[], method: HttpMethod, path: string): { route: Route; params: Record<string, string> } | null {
  for (const route of routes) {
    if (route.method !== method) continue;
    const match = route.pattern.exec(path);
    if (!match) continue;
    const params: Record<string, string> = {};
    route.keys.forEach((key, index) => { params[key] = decodeURIComponent(match[index + 1]); });
    return { route, params };
  }
  return null;
}
