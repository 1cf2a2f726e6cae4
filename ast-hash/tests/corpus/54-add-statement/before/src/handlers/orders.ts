import type { Request, Response } from "express";
import { getOrder, cancelOrder } from "../db/orders";
import { refundPayment } from "../payments/refunds";

export async function cancelOrderHandler(req: Request, res: Response): Promise<void> {
  const order = await getOrder(req.params.orderId);
  if (!order || order.customerId !== req.user?.id) {
    res.status(404).json({ error: "order_not_found" });
    return;
  }
  if (order.status === "shipped" || order.status === "delivered") {
    res.status(409).json({ error: "order_already_shipped" });
    return;
  }
  const cancelled = await cancelOrder(order.id, "customer_request");
  res.json({ id: cancelled.id, status: cancelled.status });
}

export async function getOrderHandler(req: Request, res: Response): Promise<void> {
  const order = await getOrder(req.params.orderId);
  if (!order || order.customerId !== req.user?.id) {
    res.status(404).json({ error: "order_not_found" });
    return;
  }
  res.json(order);
}
