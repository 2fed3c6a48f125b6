// The Windows icon (.ico) of the site's mark (web/public/favicon.svg), drawn here so that no
// image tool is needed to build a release and no binary file is kept in the repository.
// The .deb uses the SVG itself.

// The favicon's shapes, in its 32-unit viewBox: keep the two in step.
const BACKGROUND = { rgb: [0x1e, 0x3a, 0x5f], radius: 6 };
const LINES = { rgb: [0x7d, 0xd3, 0xfc], halfWidth: 1 };
const NODES = {
  rgb: [0xe0, 0xf2, 0xfe],
  radius: 3,
  at: [
    [8, 8],
    [24, 8],
    [8, 24],
    [24, 24],
    [16, 16],
  ],
};
const SEGMENTS = [
  [8, 8, 24, 8],
  [24, 8, 24, 24],
  [24, 24, 8, 24],
  [8, 24, 8, 8],
  [8, 8, 24, 24],
  [24, 8, 8, 24],
];
const SIZES = [16, 32, 48, 256];
const SAMPLES = 4; // per pixel side: anti-aliasing

function segmentDistance(x, y, [x1, y1, x2, y2]) {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const t = Math.max(0, Math.min(1, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - (x1 + t * dx), y - (y1 + t * dy));
}

/** The colour at a point of the viewBox, or null outside the rounded square. */
function colourAt(x, y) {
  if (NODES.at.some(([cx, cy]) => Math.hypot(x - cx, y - cy) <= NODES.radius)) return NODES.rgb;
  if (SEGMENTS.some((segment) => segmentDistance(x, y, segment) <= LINES.halfWidth)) return LINES.rgb;
  const r = BACKGROUND.radius;
  const nearest = [Math.max(r, Math.min(32 - r, x)), Math.max(r, Math.min(32 - r, y))];
  return Math.hypot(x - nearest[0], y - nearest[1]) <= r ? BACKGROUND.rgb : null;
}

/** One icon image: a 32-bit bottom-up BMP with its AND mask, as an .ico holds it. */
function bitmap(size) {
  const maskRow = Math.ceil(size / 32) * 4;
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(size, 4);
  header.writeInt32LE(size * 2, 8); // colour rows, then mask rows
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  header.writeUInt32LE(size * size * 4 + maskRow * size, 20);
  const pixels = Buffer.alloc(size * size * 4);
  const mask = Buffer.alloc(maskRow * size);
  const scale = 32 / size;
  for (let row = 0; row < size; row++)
    for (let col = 0; col < size; col++) {
      const sum = [0, 0, 0];
      let covered = 0;
      for (let i = 0; i < SAMPLES; i++)
        for (let j = 0; j < SAMPLES; j++) {
          const rgb = colourAt((col + (j + 0.5) / SAMPLES) * scale, (row + (i + 0.5) / SAMPLES) * scale);
          if (!rgb) continue;
          covered++;
          rgb.forEach((value, k) => (sum[k] += value));
        }
      const at = ((size - 1 - row) * size + col) * 4;
      if (covered > 0) {
        pixels[at] = Math.round(sum[2] / covered);
        pixels[at + 1] = Math.round(sum[1] / covered);
        pixels[at + 2] = Math.round(sum[0] / covered);
        pixels[at + 3] = Math.round((255 * covered) / SAMPLES ** 2);
      } else mask[(size - 1 - row) * maskRow + (col >> 3)] |= 0x80 >> (col & 7);
    }
  return Buffer.concat([header, pixels, mask]);
}

/** The mark as a Windows .ico (16, 32, 48 and 256 pixels). */
export function meshworkIco() {
  const images = SIZES.map(bitmap);
  const directory = Buffer.alloc(6 + 16 * images.length);
  directory.writeUInt16LE(1, 2);
  directory.writeUInt16LE(images.length, 4);
  let offset = directory.length;
  images.forEach((image, n) => {
    const entry = 6 + 16 * n;
    directory[entry] = SIZES[n] % 256; // 0 means 256
    directory[entry + 1] = SIZES[n] % 256;
    directory.writeUInt16LE(1, entry + 4);
    directory.writeUInt16LE(32, entry + 6);
    directory.writeUInt32LE(image.length, entry + 8);
    directory.writeUInt32LE(offset, entry + 12);
    offset += image.length;
  });
  return Buffer.concat([directory, ...images]);
}
