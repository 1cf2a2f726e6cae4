export interface Envelope {
  to: string;
  subject: string;
  text: string;
}

export class MailerConfig {
  host = process.env.SMTP_HOST ?? "localhost";
  port = Number(process.env.SMTP_PORT ?? 587);
  secure = this.port === 465;
  from = `no-reply@${this.host}`;

  describe(): string {
    return `${this.secure ? "smtps" : "smtp"}://${this.host}:${this.port}`;
  }
}

export class Mailer {
  constructor(private readonly config: MailerConfig, private readonly send: (raw: string) => Promise<void>) {}

  async deliver(envelope: Envelope): Promise<void> {
    const raw = [
      `From: ${this.config.from}`,
      `To: ${envelope.to}`,
      `Subject: ${envelope.subject}`,
      "",
      envelope.text,
    ].join("\r\n");
    await this.send(raw);
  }
}
