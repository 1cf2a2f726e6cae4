const DEFAULT_FLAGS = Object.freeze({
  newCheckout: false,
  darkMode: true,
  usageBasedBilling: false,
});

let overrides = {};

export const loadOverrides = (env) => {
  const raw = env.FEATURE_FLAGS ?? "";
  overrides = Object.fromEntries(
    raw
      .split(",")
      .map((pair) => pair.trim())
      .filter(Boolean)
      .map((pair) => {
        const [name, value] = pair.split("=");
        return [name, value !== "off"];
      }),
  );
  return overrides;
};

export const isEnabled = (flag, user) => {
  if (Object.prototype.hasOwnProperty.call(overrides, flag)) return overrides[flag];
  if (user && user.betaTester && flag === "newCheckout") return true;
  return DEFAULT_FLAGS[flag] ?? false;
};

export const enabledFlags = (user) => Object.keys(DEFAULT_FLAGS).filter((flag) => isEnabled(flag, user));
