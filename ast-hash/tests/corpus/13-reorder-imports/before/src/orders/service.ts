import { z } from "zod";
import type { Logger } from "../lib/logger";
import { OrderRepository, type OrderRecord } from "./repository";
import { applyDiscount, calculateTax, roundCents } from "./pricing";
import { publish } from "../lib/events";

export const CreateOrderInput = z.object({
  customerId: z.string().uuid(),
  items: z.array(z.object({ sku: z.string(), quantity: z.number().int().positive(), unitCents: z.number().int() })).min(1),
  couponCode: z.string().optional(),
  region: z.string().length(2),
});

export type CreateOrderInput = z.infer<typeof CreateOrderInput>;

export async function createOrder(repo: OrderRepository, log: Logger, raw: unknown): Promise<OrderRecord> {
  const input = CreateOrderInput.parse(raw);
  const subtotal = input.items.reduce((sum, item) => sum + item.quantity * item.unitCents, 0);
  const discounted = input.couponCode ? applyDiscount(subtotal, input.couponCode) : subtotal;
  const tax = calculateTax(discounted, input.region);
  const order = await repo.insert({
    customerId: input.customerId,
    items: input.items,
    totalCents: roundCents(discounted + tax),
    status: "pending",
  });
  log.info("order created", { orderId: order.id });
  await publish("order.created", { orderId: order.id, totalCents: order.totalCents });
  return order;
}
