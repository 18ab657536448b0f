import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SlotSymbol } from './model';

/**
 * Vector art of the slot symbols (viewBox 0 0 100 100), by symbol id. Gradients live once in
 * <SymbolDefs/> (rendered by the slot screen and the rules) and are referenced by id.
 */

const G = (id: string) => `url(#sy-${id})`;

export function SymbolDefs() {
  const lin = (id: string, stops: [string, string][], x2 = '0', y2 = '1') => (
    <linearGradient id={`sy-${id}`} x1="0" y1="0" x2={x2} y2={y2}>
      {stops.map(([o, c]) => (
        <stop key={o} offset={o} stopColor={c} />
      ))}
    </linearGradient>
  );
  const rad = (id: string, stops: [string, string][], cx = '35%', cy = '30%') => (
    <radialGradient id={`sy-${id}`} cx={cx} cy={cy} r="75%">
      {stops.map(([o, c]) => (
        <stop key={o} offset={o} stopColor={c} />
      ))}
    </radialGradient>
  );
  return (
    <svg width="0" height="0" style={{ position: 'absolute' }} aria-hidden="true" focusable="false">
      <defs>
        {lin('gold', [['0', '#fff3b0'], ['0.45', '#f5b82e'], ['1', '#9a5b06']])}
        {lin('goldDark', [['0', '#e0a526'], ['1', '#6b3f08']])}
        {lin('red', [['0', '#ff7a8a'], ['1', '#c0102a']])}
        {lin('pink', [['0', '#ffb1f1'], ['1', '#ff2fd0']])}
        {lin('cyan', [['0', '#c4fdff'], ['1', '#19c6dd']])}
        {lin('purple', [['0', '#d7b6ff'], ['1', '#6a2cff']])}
        {lin('green', [['0', '#b6ff9c'], ['1', '#1f9d3a']])}
        {lin('orange', [['0', '#ffd08a'], ['1', '#ff7a00']])}
        {lin('yellow', [['0', '#fffac2'], ['1', '#ffd000']])}
        {lin('blue', [['0', '#9fd8ff'], ['1', '#1f5fd6']])}
        {lin('lapis', [['0', '#6fa8ff'], ['1', '#14307a']])}
        {lin('teal', [['0', '#9dfbe9'], ['1', '#0b8f83']])}
        {lin('sand', [['0', '#ffe6a8'], ['1', '#c98a2b']])}
        {lin('silver', [['0', '#ffffff'], ['1', '#9aa7bd']])}
        {lin('coral', [['0', '#ffb3a1'], ['1', '#ff4f6a']])}
        {lin('shell', [['0', '#fff1e6'], ['1', '#f0a98c']])}
        {lin('turtle', [['0', '#a6f08c'], ['1', '#2f8a4a']])}
        {lin('bar', [['0', '#2a2f45'], ['1', '#0c0e18']])}
        {rad('pearl', [['0', '#ffffff'], ['0.5', '#e9e1ff'], ['1', '#a99bd6']])}
        {rad('blackPearl', [['0', '#9aa4c8'], ['0.35', '#3a3f66'], ['1', '#07081a']])}
        {rad('plum', [['0', '#e6a6ff'], ['1', '#5b1a8c']])}
        {rad('grape', [['0', '#d1a3ff'], ['1', '#5a23a8']])}
        {rad('cherry', [['0', '#ffa0a8'], ['1', '#b0001e']])}
        {rad('orangeFruit', [['0', '#ffe1a3'], ['1', '#ff7b00']])}
        {rad('lemon', [['0', '#fffbd1'], ['1', '#f0c800']])}
        {rad('glow', [['0', 'rgba(255,255,255,0.9)'], ['1', 'rgba(255,255,255,0)']], '50%', '50%')}
      </defs>
    </svg>
  );
}

const stroke = { stroke: 'rgba(0,0,0,0.35)', strokeWidth: 2, strokeLinejoin: 'round' as const };

const ART: Record<string, ReactNode> = {
  // ---- Neon Fruits
  seven: (
    <g>
      <path d="M18 18h64v14L52 86H32l30-50H18z" fill={G('pink')} stroke="#fff" strokeWidth="3" strokeLinejoin="round" />
      <path d="M24 22h52v7L48 80" fill="none" stroke="rgba(255,255,255,0.6)" strokeWidth="2" />
      <text x="50" y="96" textAnchor="middle" fontSize="13" fontWeight="900" fill="#3ff4ff" fontFamily="system-ui">WILD</text>
    </g>
  ),
  star: (
    <g>
      <circle cx="50" cy="50" r="42" fill={G('glow')} opacity="0.35" />
      <path d="M50 8l11 27 29 2-22 19 7 29-25-16-25 16 7-29-22-19 29-2z" fill={G('yellow')} stroke="#fff" strokeWidth="3" strokeLinejoin="round" />
      <circle cx="50" cy="50" r="9" fill="#fff" opacity="0.8" />
    </g>
  ),
  bar: (
    <g>
      <rect x="10" y="28" width="80" height="44" rx="8" fill={G('bar')} stroke={G('cyan')} strokeWidth="4" />
      <text x="50" y="61" textAnchor="middle" fontSize="30" fontWeight="900" fill={G('cyan')} fontFamily="system-ui" letterSpacing="2">BAR</text>
    </g>
  ),
  bell: (
    <g>
      <path d="M50 12c-4 0-6 3-6 6-14 4-20 16-20 32 0 14-6 18-10 22v6h72v-6c-4-4-10-8-10-22 0-16-6-28-20-32 0-3-2-6-6-6z" fill={G('gold')} {...stroke} />
      <circle cx="50" cy="84" r="8" fill={G('goldDark')} />
      <path d="M36 40c2-8 6-12 12-14" stroke="#fff" strokeWidth="4" strokeLinecap="round" fill="none" opacity="0.7" />
    </g>
  ),
  melon: (
    <g>
      <path d="M8 40h84a42 42 0 0 1-84 0z" fill={G('green')} {...stroke} />
      <path d="M15 40h70a35 35 0 0 1-70 0z" fill="#ff4d6d" />
      {[30, 42, 54, 66].map((x, i) => (
        <ellipse key={x} cx={x} cy={i % 2 ? 56 : 50} rx="2.5" ry="4" fill="#2a0a10" />
      ))}
    </g>
  ),
  grapes: (
    <g>
      <path d="M50 10c6 4 14 4 18 0" stroke="#5c9e2e" strokeWidth="4" fill="none" strokeLinecap="round" />
      <path d="M58 8c10-2 18 4 20 12-8 2-16-2-20-12z" fill={G('green')} />
      {[
        [36, 30], [50, 28], [64, 30], [30, 45], [44, 44], [58, 44], [70, 45], [38, 59], [52, 58], [64, 59], [44, 72], [58, 72], [51, 85],
      ].map(([x, y]) => (
        <circle key={`${x}-${y}`} cx={x} cy={y} r="9" fill={G('grape')} stroke="rgba(0,0,0,0.3)" strokeWidth="1.5" />
      ))}
    </g>
  ),
  plum: (
    <g>
      <path d="M50 22c-22 0-34 16-34 34s14 32 34 32 34-14 34-32-12-34-34-34z" fill={G('plum')} {...stroke} />
      <path d="M50 24c-2 18 0 40 4 62" stroke="rgba(0,0,0,0.25)" strokeWidth="2" fill="none" />
      <path d="M50 22c0-6 2-10 6-14" stroke="#6b3b16" strokeWidth="4" strokeLinecap="round" fill="none" />
      <path d="M56 12c10-4 20 0 24 6-10 4-18 2-24-6z" fill={G('green')} />
      <ellipse cx="36" cy="44" rx="6" ry="10" fill="#fff" opacity="0.35" />
    </g>
  ),
  orange: (
    <g>
      <circle cx="50" cy="54" r="34" fill={G('orangeFruit')} {...stroke} />
      <path d="M50 20c4-8 14-10 22-6-4 8-14 10-22 6z" fill={G('green')} />
      <ellipse cx="38" cy="42" rx="7" ry="10" fill="#fff" opacity="0.35" />
      {[[60, 60], [44, 68], [64, 44], [54, 76]].map(([x, y]) => (
        <circle key={`${x}${y}`} cx={x} cy={y} r="1.6" fill="rgba(120,50,0,0.4)" />
      ))}
    </g>
  ),
  lemon: (
    <g>
      <path d="M12 52c0-18 18-32 38-32s38 14 38 32-18 32-38 32S12 70 12 52z" fill={G('lemon')} {...stroke} />
      <path d="M10 52l-6-2M90 52l6-2" stroke="#d6b000" strokeWidth="5" strokeLinecap="round" />
      <ellipse cx="36" cy="42" rx="12" ry="6" fill="#fff" opacity="0.45" />
    </g>
  ),
  cherry: (
    <g>
      <path d="M30 62C36 40 46 24 64 12M70 62C66 44 64 28 64 12" stroke="#3e7d1f" strokeWidth="4" fill="none" strokeLinecap="round" />
      <path d="M64 12c10-6 22-2 26 6-12 4-20 2-26-6z" fill={G('green')} />
      <circle cx="30" cy="70" r="17" fill={G('cherry')} {...stroke} />
      <circle cx="70" cy="70" r="17" fill={G('cherry')} {...stroke} />
      <circle cx="24" cy="64" r="4" fill="#fff" opacity="0.6" />
      <circle cx="64" cy="64" r="4" fill="#fff" opacity="0.6" />
    </g>
  ),

  // ---- Desert Gold
  pharaoh: (
    <g>
      <path d="M50 6 18 26v36c0 16 14 30 32 32 18-2 32-16 32-32V26z" fill={G('lapis')} stroke={G('gold')} strokeWidth="4" />
      {[34, 44, 54, 64, 74].map((y) => (
        <path key={y} d={`M20 ${y}h60`} stroke={G('gold')} strokeWidth="4" opacity="0.9" />
      ))}
      <path d="M34 30c0-12 8-18 16-18s16 6 16 18v26c0 12-8 20-16 20s-16-8-16-20z" fill={G('gold')} {...stroke} />
      <path d="M40 42h7M53 42h7" stroke="#1a1204" strokeWidth="3" strokeLinecap="round" />
      <path d="M46 76h8v14h-8z" fill={G('goldDark')} />
      <path d="M44 10l6-6 6 6-6 8z" fill="#36c" stroke={G('gold')} strokeWidth="2" />
      <text x="50" y="99" textAnchor="middle" fontSize="11" fontWeight="900" fill="#fff3b0" fontFamily="system-ui">WILD</text>
    </g>
  ),
  pyramid: (
    <g>
      <circle cx="50" cy="30" r="16" fill="#ffd66b" opacity="0.55" />
      <path d="M50 14 90 84H10z" fill={G('sand')} {...stroke} />
      <path d="M50 14 90 84H50z" fill="rgba(0,0,0,0.2)" />
      <path d="M26 56h48M18 70h64M34 42h32" stroke="rgba(100,60,10,0.5)" strokeWidth="2" />
      <path d="M50 14l6 10H44z" fill="#fff3b0" />
    </g>
  ),
  mask: (
    <g>
      <path d="M50 8C30 8 22 22 22 40v20c0 20 12 32 28 34 16-2 28-14 28-34V40c0-18-8-32-28-32z" fill={G('gold')} {...stroke} />
      <path d="M22 40h-8v28l10 8M78 40h8v28l-10 8" fill={G('lapis')} stroke={G('goldDark')} strokeWidth="2" />
      <path d="M34 44c4-4 10-4 14 0M52 44c4-4 10-4 14 0" stroke="#14307a" strokeWidth="4" fill="none" strokeLinecap="round" />
      <path d="M50 48v14l-4 4h8" stroke="#9a5b06" strokeWidth="2.5" fill="none" />
      <path d="M42 74h16" stroke="#9a5b06" strokeWidth="3" strokeLinecap="round" />
      <path d="M44 84h12v10H44z" fill={G('lapis')} stroke={G('goldDark')} strokeWidth="2" />
    </g>
  ),
  anubis: (
    <g>
      <path d="M28 8l10 26M72 8 62 34" stroke="#111" strokeWidth="10" strokeLinecap="round" />
      <path d="M28 8l10 26M72 8 62 34" stroke={G('gold')} strokeWidth="3" strokeLinecap="round" />
      <path d="M30 40c0-8 8-14 20-14s20 6 20 14l8 22-14 6-6 24H42l-6-24-14-6z" fill="#1b1b26" stroke={G('gold')} strokeWidth="3" strokeLinejoin="round" />
      <path d="M38 44l8 3M62 44l-8 3" stroke="#ffd66b" strokeWidth="3" strokeLinecap="round" />
      <path d="M40 80h20" stroke={G('gold')} strokeWidth="4" />
    </g>
  ),
  eye: (
    <g>
      <path d="M8 44c14-16 30-22 42-22s28 6 42 22c-14 14-30 20-42 20S22 58 8 44z" fill="#fff8e6" stroke={G('lapis')} strokeWidth="5" />
      <circle cx="50" cy="43" r="13" fill={G('lapis')} />
      <circle cx="50" cy="43" r="6" fill="#0a0f24" />
      <circle cx="46" cy="39" r="3" fill="#fff" />
      <path d="M36 62l-6 24c8 0 14-4 14-10M56 64l16 14" stroke={G('lapis')} strokeWidth="5" fill="none" strokeLinecap="round" />
      <path d="M14 30c14-10 58-10 72 0" stroke={G('gold')} strokeWidth="5" fill="none" strokeLinecap="round" />
    </g>
  ),
  ankh: (
    <g>
      <path d="M50 8c-12 0-20 10-20 22 0 10 8 18 14 24H22v12h22v28h12V66h22V54H56c6-6 14-14 14-24 0-12-8-22-20-22zm0 12c6 0 8 5 8 10s-4 12-8 16c-4-4-8-11-8-16s2-10 8-10z"
        fill={G('gold')} stroke="#6b3f08" strokeWidth="2" fillRule="evenodd" />
    </g>
  ),
  ace: royal('A', 'lapis'),
  king: royal('K', 'red'),
  queen: royal('Q', 'teal'),
  jack: royal('J', 'purple'),

  // ---- Atlantis Pearls
  trident: (
    <g>
      <circle cx="50" cy="44" r="38" fill={G('glow')} opacity="0.25" />
      <path d="M47 30h6v64h-6z" fill={G('gold')} />
      <path d="M26 14l4 20c2 8 10 12 20 12s18-4 20-12l4-20-8 8-2 14c-2 4-6 6-14 6s-12-2-14-6l-2-14z" fill={G('gold')} stroke="#6b3f08" strokeWidth="1.5" />
      <path d="M50 4l6 14-6 14-6-14z" fill={G('gold')} stroke="#6b3f08" strokeWidth="1.5" />
      <path d="M26 14l-4-6M74 14l4-6" stroke={G('gold')} strokeWidth="4" strokeLinecap="round" />
      <text x="50" y="99" textAnchor="middle" fontSize="11" fontWeight="900" fill="#bff7ff" fontFamily="system-ui">WILD</text>
    </g>
  ),
  pearl: (
    <g>
      <path d="M10 62c0-22 18-36 40-36s40 14 40 36c-10 16-24 24-40 24S20 78 10 62z" fill={G('shell')} {...stroke} />
      {[22, 36, 50, 64, 78].map((x) => (
        <path key={x} d={`M50 84 ${x} 32`} stroke="rgba(160,80,60,0.35)" strokeWidth="2" />
      ))}
      <circle cx="50" cy="54" r="20" fill={G('blackPearl')} stroke="#cfd6ff" strokeWidth="1.5" />
      <ellipse cx="43" cy="46" rx="6" ry="4" fill="#fff" opacity="0.7" />
    </g>
  ),
  mermaid: (
    <g>
      <circle cx="50" cy="22" r="12" fill="#f6c6a4" />
      <path d="M36 20c0-14 28-14 28 0 4 10 6 24 2 34-4-10-8-20-16-24-8 4-12 14-16 24-4-10-2-24 2-34z" fill="#ff6b4a" />
      <path d="M40 36c-4 8-4 18 2 26h16c6-8 6-18 2-26z" fill="#f6c6a4" />
      <path d="M40 46h20" stroke={G('purple')} strokeWidth="6" strokeLinecap="round" />
      <path d="M42 60c-4 14 0 22 8 30-4 4-14 4-18 0 6 0 10-2 12-6M58 60c2 12-2 22-8 30 4 4 14 4 18 0-6 0-10-2-12-6" fill={G('teal')} stroke="#06463f" strokeWidth="2" />
      <path d="M42 60h16c2 10 0 20-8 30-8-10-10-20-8-30z" fill={G('teal')} stroke="#06463f" strokeWidth="2" />
    </g>
  ),
  seahorse: (
    <g>
      <path d="M58 10c-12 0-20 8-20 18 0 6 4 10 2 16-4 10-12 16-10 28 2 10 12 18 22 16 8-2 10-10 6-16-4-4-10-2-10 2 4 0 4 6 0 6-6 0-8-8-4-14 6-10 18-14 18-30 0-6-2-10-4-12 6 2 12 0 14-4-6 0-10-2-14-4z"
        fill={G('orange')} stroke="#8a3a00" strokeWidth="2" strokeLinejoin="round" />
      <circle cx="54" cy="20" r="3" fill="#1a0a00" />
      <path d="M38 30l-8-4 6 10M40 44l-10 0 8 6M42 58l-10 4 10 2" fill={G('yellow')} />
    </g>
  ),
  turtle: (
    <g>
      <path d="M20 40 8 30M80 40l12-10M22 70 10 82M78 70l12 12" stroke="#5fbf5a" strokeWidth="9" strokeLinecap="round" />
      <circle cx="50" cy="18" r="10" fill="#6fd06a" />
      <ellipse cx="50" cy="55" rx="32" ry="34" fill={G('turtle')} {...stroke} />
      <path d="M50 28l12 10v16l-12 10-12-10V38zM38 54l-14 6M62 54l14 6M50 64v22M38 38 24 32M62 38l14-6" stroke="#1f5a2e" strokeWidth="3" fill="none" />
      <circle cx="46" cy="16" r="2" fill="#000" />
    </g>
  ),
  clam: (
    <g>
      <path d="M8 54c0-22 20-40 42-40s42 18 42 40z" fill={G('purple')} {...stroke} />
      {[20, 34, 50, 66, 80].map((x) => (
        <path key={x} d={`M50 54 ${x} 18`} stroke="rgba(255,255,255,0.35)" strokeWidth="3" />
      ))}
      <path d="M8 54c10 22 26 30 42 30s32-8 42-30z" fill={G('lapis')} {...stroke} />
      <circle cx="50" cy="58" r="12" fill={G('pearl')} />
    </g>
  ),
  starfish: (
    <g>
      <path d="M50 8c5 0 7 18 10 26 8 2 28 2 30 8 1 5-16 14-22 20 2 8 10 26 6 30-4 3-18-10-24-14-6 4-20 17-24 14-4-4 4-22 6-30-6-6-23-15-22-20 2-6 22-6 30-8 3-8 5-26 10-26z"
        fill={G('coral')} stroke="#9c1f35" strokeWidth="2" strokeLinejoin="round" />
      {[[50, 30], [50, 44], [66, 44], [34, 44], [58, 60], [42, 60]].map(([x, y]) => (
        <circle key={`${x}${y}`} cx={x} cy={y} r="2.5" fill="#ffe0d6" />
      ))}
    </g>
  ),
  shell: (
    <g>
      <path d="M50 10C26 10 12 30 12 52c0 10 4 18 10 24h56c6-6 10-14 10-24 0-22-14-42-38-42z" fill={G('shell')} {...stroke} />
      {[24, 36, 50, 64, 76].map((x) => (
        <path key={x} d={`M50 86 ${x} 16`} stroke="rgba(190,90,70,0.55)" strokeWidth="3" />
      ))}
      <path d="M36 76h28l-4 12H40z" fill={G('coral')} />
    </g>
  ),
  coral: (
    <g>
      <path d="M46 92V62L30 44V24M30 44 18 34V20M46 62l18-18V18M64 44l12-10V22M54 54l10 6v16" stroke={G('coral')} strokeWidth="9" strokeLinecap="round" strokeLinejoin="round" fill="none" />
      {[[30, 22], [18, 18], [64, 16], [76, 20], [64, 78]].map(([x, y]) => (
        <circle key={`${x}${y}`} cx={x} cy={y} r="5" fill="#ffd0c6" />
      ))}
      <path d="M30 92h40" stroke="#c98a2b" strokeWidth="6" strokeLinecap="round" />
    </g>
  ),
  anchor: (
    <g>
      <circle cx="50" cy="16" r="8" fill="none" stroke={G('silver')} strokeWidth="5" />
      <path d="M50 24v64M34 36h32" stroke={G('silver')} strokeWidth="7" strokeLinecap="round" />
      <path d="M16 58c2 18 18 30 34 30s32-12 34-30" fill="none" stroke={G('silver')} strokeWidth="7" strokeLinecap="round" />
      <path d="M10 62l6-10 8 8M90 62l-6-10-8 8" fill={G('silver')} stroke={G('silver')} strokeWidth="3" strokeLinejoin="round" />
    </g>
  ),
};

function royal(letter: string, color: string): ReactNode {
  return (
    <g>
      <rect x="16" y="10" width="68" height="80" rx="10" fill="rgba(0,0,0,0.25)" stroke={G('gold')} strokeWidth="3" />
      <path d="M22 18h56M22 82h56" stroke={G('goldDark')} strokeWidth="2" strokeDasharray="4 3" />
      <text x="50" y="72" textAnchor="middle" fontSize="58" fontWeight="900" fontFamily="Georgia, 'Times New Roman', serif"
        fill={G(color)} stroke="#fff3b0" strokeWidth="2.5" paintOrder="stroke">
        {letter}
      </text>
    </g>
  );
}

const PALETTE = ['gold', 'pink', 'cyan', 'purple', 'green', 'orange', 'blue', 'coral'];

/** A symbol: its drawing, or a faceted gem for an id this client does not know. */
export function SymbolArt({ symbol, className }: { symbol: SlotSymbol; theme?: string; className?: string }) {
  const { t } = useTranslation('studio');
  const art = ART[symbol.id];
  return (
    <svg className={className} viewBox="0 0 100 100" role="img" aria-label={t(`slots.sym.${symbol.id}`, { defaultValue: symbol.name })} data-symbol={symbol.id}>
      {art ?? (
        <g>
          <path d="M50 8 86 34 72 88H28L14 34z" fill={G(PALETTE[symbol.index % PALETTE.length]!)} stroke="#fff" strokeWidth="3" strokeLinejoin="round" />
          <path d="M14 34h72M50 8 36 34l14 54 14-54z" stroke="rgba(255,255,255,0.5)" strokeWidth="2" fill="none" />
        </g>
      )}
    </svg>
  );
}
