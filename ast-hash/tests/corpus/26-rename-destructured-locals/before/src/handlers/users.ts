import type { Request, Response } from "express";
import { findUserById, updateUser } from "../db/users";

interface UpdateUserBody {
  displayName?: string;
  email?: string;
}

export async function getUserHandler(req: Request, res: Response): Promise<void> {
  const { id: userId } = req.params;
  const user = await findUserById(userId);
  if (!user) {
    res.status(404).json({ error: "user_not_found" });
    return;
  }
  res.json(user);
}

export async function updateUserHandler(req: Request, res: Response): Promise<void> {
  const { id: userId } = req.params;
  const { displayName: name, email: address } = req.body as UpdateUserBody;
  if (address !== undefined && !address.includes("@")) {
    res.status(400).json({ error: "invalid_email" });
    return;
  }
  const updated = await updateUser(userId, { displayName: name, email: address });
  res.status(updated ? 200 : 404).json(updated ?? { error: "user_not_found" });
}
