import type { Request, Response } from "express";
import { findUserById, updateUser } from "../db/users";

interface UpdateUserBody {
  displayName?: string;
  email?: string;
}

export async function getUserHandler(req: Request, res: Response): Promise<void> {
  const { id: targetId } = req.params;
  const user = await findUserById(targetId);
  if (!user) {
    res.status(404).json({ error: "user_not_found" });
    return;
  }
  res.json(user);
}

export async function updateUserHandler(req: Request, res: Response): Promise<void> {
  const { id: targetId } = req.params;
  const { displayName: newName, email: newEmail } = req.body as UpdateUserBody;
  if (newEmail !== undefined && !newEmail.includes("@")) {
    res.status(400).json({ error: "invalid_email" });
    return;
  }
  const updated = await updateUser(targetId, { displayName: newName, email: newEmail });
  res.status(updated ? 200 : 404).json(updated ?? { error: "user_not_found" });
}
