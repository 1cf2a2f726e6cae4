const RESET_PATH = "/account/reset-password";

export function resetLink(baseUrl, token) {
  const url = new URL(RESET_PATH, baseUrl);
  url.searchParams.set("token", token);
  return url.toString();
}

export function passwordResetEmail({ to, name, baseUrl, token, expiresInMinutes = 30 }) {
  const link = resetLink(baseUrl, token);
  return {
    to,
    subject: `Reset your password`,
    text: `Hi ${name},

Someone asked to reset the password of your account. If it was you, open the link below within ${expiresInMinutes} minutes:

${link}

If you did not ask for this, you can ignore this email.`,
    html: `<p>Hi ${name},</p><p><a href="${link}">Reset your password</a> (valid for ${expiresInMinutes} minutes).</p>`,
  };
}
