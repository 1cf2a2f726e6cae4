export function debounce(fn, wait = 100, { leading = false } = {}) {
  let timer = null;
  let lastArgs = null;
  function invoke(context) {
    const args = lastArgs;
    lastArgs = null;
    fn.apply(context, args);
  }
  function debounced(...args) {
    const callNow = leading && timer === null;
    lastArgs = args;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      if (!leading && lastArgs) invoke(this);
    }, wait);
    if (callNow) invoke(this);
  }
  debounced.cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    lastArgs = null;
  };
  return debounced;
}

export function throttle(fn, interval = 1000) {
  let last = 0;
  return function throttled(...args) {
    const now = Date.now();
    if (now - last >= interval) {
      last = now;
      fn.apply(this, args);
    }
  };
}
