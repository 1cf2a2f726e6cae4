import type { Request, Response } from "express";
import { createUser, findUserByEmail } from "../db/users";
import { hashPassword } from "../auth/password";

export async function signupHandler(req: Request, res: Response): Promise<void> {
  const { email, password, name } = req.body ?? {};
  const errors: string[] = [];
  if (typeof email !== "string" || !/^[^\s@]+@[^\s@]+$/.test(email)) {
    errors.push("email");
  }
  if (typeof password !== "string" || password.length < 12) {
    errors.push("password");
  }
  if (typeof name !== "string" || name.trim().length === 0) {
    errors.push("name");
  }
  if (errors.length > 0) {
    res.status(422).json({ error: "validation_failed", fields: errors });
    return;
  }
  if (await findUserByEmail(email.toLowerCase())) {
    res.status(409).json({ error: "email_taken" });
    return;
  }
  const user = await createUser({
    email: email.toLowerCase(),
    name: name.trim(),
    passwordHash: await hashPassword(password),
  });
  res.status(201).json({ id: user.id, email: user.email, name: user.name });
}
