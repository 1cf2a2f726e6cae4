import { useEffect, useRef, useState } from "react";

export function Dropdown({ label, options, value, onChange }) {
  const [open, setOpen] = useState(false);
  const [highlighted, setHighlighted] = useState(0);
  const rootRef = useRef(null);

  useEffect(() => {
    if (!open) return undefined;
    function handleClickOutside(event) {
      if (rootRef.current && !rootRef.current.contains(event.target)) {
        setOpen(false);
      }
    }
    document.addEventListener("mousedown", handleClickOutside);
    return () => document.removeEventListener("mousedown", handleClickOutside);
  }, [open]);

  function handleKeyDown(event) {
    if (event.key === "ArrowDown") {
      setHighlighted((index) => Math.min(options.length - 1, index + 1));
    } else if (event.key === "ArrowUp") {
      setHighlighted((index) => Math.max(0, index - 1));
    } else if (event.key === "Enter" && open) {
      onChange(options[highlighted].value);
      setOpen(false);
    } else if (event.key === "Escape") {
      setOpen(false);
    }
  }

  const selected = options.find((option) => option.value === value);
  return (
    <div ref={rootRef} className="dropdown" onKeyDown={handleKeyDown}>
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {selected ? selected.label : label}
      </button>
      {open && (
        <ul role="listbox">
          {options.map((option, index) => (
            <li key={option.value} role="option" aria-selected={index === highlighted} onClick={() => { onChange(option.value); setOpen(false); }}>
              {option.label}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
