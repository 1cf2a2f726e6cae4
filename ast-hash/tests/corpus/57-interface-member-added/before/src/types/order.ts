export type OrderStatus = "pending" | "paid" | "shipped" | "delivered" | "cancelled";

export interface OrderItem {
  sku: string;
  quantity: number;
  unitPriceCents: number;
}

export interface Order {
  id: string;
  customerId: string;
  status: OrderStatus;
  items: OrderItem[];
  placedAt: Date;
  notes?: string;
}

export function orderTotal(order: Pick<Order, "items">): number {
  return order.items.reduce((sum, item) => sum + item.quantity * item.unitPriceCents, 0);
}

export function canCancel(order: Pick<Order, "status">): boolean {
  return order.status === "pending" || order.status === "paid";
}
