import PropTypes from "prop-types";

export function Avatar({ name, imageUrl, size = 40 }) {
  const style = { width: size, height: size, borderRadius: "50%" };
  if (imageUrl) {
    return <img src={imageUrl} alt={name} style={style} className="avatar" />;
  }
  return (
    <span className="avatar avatar--initials" style={{ ...style, backgroundColor: colorFor(name) }} aria-label={name}>
      {initialsOf(name)}
    </span>
  );
}

function colorFor(seed) {
  let hash = 0;
  for (let index = 0; index < seed.length; index++) {
    hash = (hash * 31 + seed.charCodeAt(index)) >>> 0;
  }
  return `hsl(${hash % 360}, 55%, 45%)`;
}

Avatar.propTypes = {
  name: PropTypes.string.isRequired,
  imageUrl: PropTypes.string,
  size: PropTypes.number,
};

function initialsOf(name) {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return "?";
  const first = parts[0][0];
  const last = parts.length > 1 ? parts[parts.length - 1][0] : "";
  return (first + last).toUpperCase();
}
