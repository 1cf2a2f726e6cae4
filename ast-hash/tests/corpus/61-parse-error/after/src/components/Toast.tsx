import { useEffect } from "react";

export type ToastTone = "info" | "success" | "error";

export interface ToastProps {
  id: string;
  tone: ToastTone;
  message: string;
  durationMs?: number;
  onDismiss: (id: string) => void;
}

export function Toast({ id, tone, message, durationMs = 6000, onDismiss }: ToastProps) {
  useEffect(() => {
    const timer = window.setTimeout(() => onDismiss(id), durationMs);
    return () => window.clearTimeout(timer);
  }, [id, durationMs, onDismiss]);

  return (
    <div role={tone === "error" ? "alert" : "status"} className={`toast toast--${tone}`}>
      <span className="toast__message">{message}
      <button type="button" className="toast__close" aria-label="Dismiss" onClick={() => onDismiss(id)}>
        &times;
      </button>
    </div>
  );
}
