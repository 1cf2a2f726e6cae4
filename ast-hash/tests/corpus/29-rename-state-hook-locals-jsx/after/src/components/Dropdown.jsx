import { useEffect, useRef, useState } from "react";

export function Dropdown({ label, options, value, onChange }) {
  const [isOpen, setIsOpen] = useState(false);
  const [activeIndex, setActiveIndex] = useState(0);
  const rootRef = useRef(null);

  useEffect(() => {
    if (!isOpen) return undefined;
    function handleClickOutside(event) {
      if (rootRef.current && !rootRef.current.contains(event.target)) {
        setIsOpen(false);
      }
    }
    document.addEventListener("mousedown", handleClickOutside);
    return () => document.removeEventListener("mousedown", handleClickOutside);
  }, [isOpen]);

  function handleKeyDown(event) {
    if (event.key === "ArrowDown") {
      setActiveIndex((index) => Math.min(options.length - 1, index + 1));
    } else if (event.key === "ArrowUp") {
      setActiveIndex((index) => Math.max(0, index - 1));
    } else if (event.key === "Enter" && isOpen) {
      onChange(options[activeIndex].value);
      setIsOpen(false);
    } else if (event.key === "Escape") {
      setIsOpen(false);
    }
  }

  const selected = options.find((option) => option.value === value);
  return (
    <div ref={rootRef} className="dropdown" onKeyDown={handleKeyDown}>
      <button type="button" aria-expanded={isOpen} onClick={() => setIsOpen(!isOpen)}>
        {selected ? selected.label : label}
      </button>
      {isOpen && (
        <ul role="listbox">
          {options.map((option, index) => (
            <li key={option.value} role="option" aria-selected={index === activeIndex} onClick={() => { onChange(option.value); setIsOpen(false); }}>
              {option.label}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
