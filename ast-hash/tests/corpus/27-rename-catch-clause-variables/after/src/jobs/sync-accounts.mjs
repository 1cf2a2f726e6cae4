import { setTimeout as delay } from "node:timers/promises";

export class SyncError extends Error {
  constructor(message, cause) {
    super(message, { cause });
    this.name = "SyncError";
  }
}

export async function syncAccounts(source, target, { batchSize = 100, logger = console } = {}) {
  let cursor = null;
  let synced = 0;
  do {
    let page;
    try {
      page = await source.listAccounts({ after: cursor, limit: batchSize });
    } catch (error) {
      logger.error("listing accounts failed", error);
      throw new SyncError("could not list source accounts", error);
    }
    for (const account of page.items) {
      try {
        await target.upsertAccount(account);
        synced += 1;
      } catch (upsertError) {
        if (upsertError && upsertError.code === "RATE_LIMITED") {
          await delay(1000);
          await target.upsertAccount(account);
          synced += 1;
        } else {
          logger.warn(`skipping account ${account.id}: ${upsertError.message}`);
        }
      }
    }
    cursor = page.nextCursor;
  } while (cursor);
  return synced;
}
