import React from "react";
import type { Plan } from "../billing/plans";

export interface PlanCardProps {
  plan: Plan;
  isCurrent: boolean;
  onSelect: (planId: string) => void;
}

function formatPrice(cents: number, interval: "month" | "year"): string {
  const amount = (cents / 100).toFixed(2);
  return interval === "month" ? `$${amount}/mo` : `$${amount}/yr`;
}

export function PlanCard({ plan, isCurrent, onSelect }: PlanCardProps) {
  const features = plan.features.slice(0, 5);
  return (
    <section className={isCurrent ? "plan-card plan-card--current" : "plan-card"} aria-labelledby={`plan-${plan.id}-title`} data-plan={plan.id}>
      <h3 id={`plan-${plan.id}-title`} className="plan-card__title">{plan.name}</h3>
      <p className="plan-card__price">{formatPrice(plan.priceCents, plan.interval)}</p>
      <ul className="plan-card__features">
        {features.map((feature) => <li key={feature} className="plan-card__feature">{feature}</li>)}
      </ul>
      <button type="button" className="plan-card__cta" disabled={isCurrent} onClick={() => onSelect(plan.id)}>
        {isCurrent ? "Current plan" : "Choose plan"}
      </button>
    </section>
  );
}
