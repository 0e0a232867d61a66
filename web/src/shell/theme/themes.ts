import type { AliasToken } from 'antd/es/theme/interface';

/** The eleven themes of spec 2, modelled on Saber's theme-* stylesheets, as one palette table. */
export const THEME_NAMES = ['default', 'white', 'dark', 'star', 'smart', 'iview', 'vip', 'cool', 'd2', 'hey', 'lte'] as const;
export type ThemeName = (typeof THEME_NAMES)[number];

/** Spec 9: default theme theme-d2, default colour #52D577. */
export const DEFAULT_THEME: ThemeName = 'd2';
export const DEFAULT_PRIMARY = '#52D577';

/** Swatches offered by the colour picker (the default first). */
export const PRIMARY_PRESETS = [
  '#52D577', '#409EFF', '#1677FF', '#13C2C2', '#2F54EB', '#722ED1', '#EB2F96', '#F5222D', '#FA541C', '#FA8C16', '#FAAD14', '#20222A',
] as const;

export function isThemeName(value: unknown): value is ThemeName {
  return typeof value === 'string' && (THEME_NAMES as readonly string[]).includes(value);
}

/**
 * A CSS colour (or, where noted, any CSS background), the user's primary colour at an opacity, or an
 * ink readable on the primary colour (dark on a light one, white on a dark one).
 */
export type Paint = string | { primary: number } | { inkOnPrimary: true };
const primary: Paint = { primary: 1 };
const inkOnPrimary: Paint = { inkOnPrimary: true };
const primarySoft = (alpha: number): Paint => ({ primary: alpha });

export interface ThemePalette {
  /** antd's dark algorithm for the whole console */
  dark: boolean;
  /** painted behind the whole frame (any CSS background); the themes drawn edge to edge use it */
  backdrop?: string;
  /** the page area around the content cards */
  pageBg: Paint;
  logo: { bg: Paint; text: Paint };
  sider: {
    bg: Paint;
    shadow: string;
    text: Paint;
    hoverBg: Paint;
    hoverText: Paint;
    selectedBg: Paint;
    selectedText: Paint;
    /** background of opened submenus */
    subBg: Paint;
    /** the bar marking the selected item */
    bar: 'left' | 'right' | 'none';
    barColor: Paint;
    itemRadius: number;
    /** title of the submenu holding the selected page (defaults to `selectedText`) */
    openText?: Paint;
    /** submenus of the collapsed sidebar pop out on this (defaults to `bg`; needed where `bg` is see-through) */
    popupBg?: Paint;
  };
  /** `bg` may be a gradient */
  header: { bg: Paint; text: Paint; shadow: string; searchBg: Paint };
  /** the tag bar (drawn by the tab bar through the CSS variables) */
  tags: { bg: Paint; tagBg: Paint; tagText: Paint; activeBg: Paint; activeText: Paint; activeBorder: Paint };
  /** extra antd alias tokens (the dark theme's surfaces) */
  tokens?: Partial<AliasToken>;
}

const STARFIELD = [
  // star layers tiled at sizes sharing no common factor, so the repetition does not read as a grid
  'radial-gradient(circle, rgba(255,255,255,.95) 0 1px, transparent 1.6px) 13px 29px / 173px 157px',
  'radial-gradient(circle, rgba(255,255,255,.6) 0 0.8px, transparent 1.4px) 91px 61px / 241px 211px',
  'radial-gradient(circle, rgba(190,205,255,.8) 0 1.3px, transparent 2px) 47px 131px / 307px 283px',
  'radial-gradient(circle, rgba(255,236,200,.7) 0 1px, transparent 1.6px) 151px 7px / 389px 347px',
  'radial-gradient(ellipse at 78% 18%, rgba(136,84,208,.5), transparent 55%)',
  'radial-gradient(ellipse at 18% 82%, rgba(24,126,186,.5), transparent 55%)',
  'linear-gradient(160deg, #0b1026 0%, #1f1640 55%, #0c2a45 100%)',
].join(', ');

export const THEMES: Record<ThemeName, ThemePalette> = {
  // Saber's own look: a near-black sidebar with a bar in the primary colour, white header
  default: {
    dark: false,
    pageBg: '#f0f2f5',
    logo: { bg: '#20222a', text: '#ffffff' },
    sider: {
      bg: '#20222a', shadow: 'none', text: 'rgba(255,255,255,0.7)', hoverBg: 'rgba(255,255,255,0.04)', hoverText: '#ffffff',
      selectedBg: 'rgba(0,0,0,0.8)', selectedText: '#ffffff', subBg: '#1b1d24', bar: 'left', barColor: primary, itemRadius: 0,
    },
    header: { bg: '#ffffff', text: 'rgba(0,0,0,0.75)', shadow: '0 1px 4px rgba(0,21,41,0.08)', searchBg: 'rgba(0,0,0,0.04)' },
    tags: { bg: '#ffffff', tagBg: '#ffffff', tagText: 'rgba(0,0,0,0.6)', activeBg: '#ffffff', activeText: primary, activeBorder: primary },
  },
  // white sidebar, header and tag bar in the primary colour, selected item filled with it
  white: {
    dark: false,
    pageBg: '#f0f2f5',
    logo: { bg: primary, text: inkOnPrimary },
    sider: {
      bg: '#ffffff', shadow: '2px 0 6px rgba(0,21,41,0.15)', text: '#666666', hoverBg: '#f5f5f5', hoverText: '#333333',
      selectedBg: primary, selectedText: inkOnPrimary, subBg: '#ffffff', bar: 'none', barColor: primary, itemRadius: 0,
      openText: primary,
    },
    // the text on the primary colour stays readable whatever colour is chosen (white on a dark one, dark on a light one)
    header: { bg: primary, text: inkOnPrimary, shadow: 'none', searchBg: 'rgba(255,255,255,0.2)' },
    tags: { bg: primary, tagBg: 'rgba(255,255,255,0.2)', tagText: inkOnPrimary, activeBg: '#ffffff', activeText: primary, activeBorder: '#ffffff' },
  },
  // slate everywhere, antd's dark algorithm for the content
  dark: {
    dark: true,
    pageBg: '#2c3643',
    logo: { bg: '#2c3643', text: '#ffffff' },
    sider: {
      bg: '#2c3643', shadow: 'none', text: '#cccccc', hoverBg: '#262d37', hoverText: '#ffffff',
      selectedBg: '#262d37', selectedText: '#ffffff', subBg: '#28313d', bar: 'left', barColor: primary, itemRadius: 0,
    },
    header: { bg: '#2c3643', text: '#cccccc', shadow: '0 1px 0 #262d37', searchBg: 'rgba(255,255,255,0.08)' },
    tags: { bg: '#2c3643', tagBg: '#262d37', tagText: '#cccccc', activeBg: '#ffffff', activeText: '#262d37', activeBorder: '#262d37' },
    tokens: { colorBgLayout: '#2c3643', colorBgContainer: '#262d37', colorBgElevated: '#323c4a', colorBorderSecondary: '#3a4554' },
  },
  // a night sky behind a see-through frame
  star: {
    dark: false,
    backdrop: STARFIELD,
    pageBg: 'transparent',
    logo: { bg: 'transparent', text: '#ffffff' },
    sider: {
      bg: 'transparent', shadow: 'none', text: 'rgba(255,255,255,0.85)', hoverBg: 'rgba(255,255,255,0.08)', hoverText: '#ffffff',
      selectedBg: 'rgba(0,0,0,0.4)', selectedText: '#ffffff', subBg: 'transparent', bar: 'left', barColor: '#ffffff', itemRadius: 6,
      popupBg: '#1f1640',
    },
    header: { bg: 'transparent', text: '#ffffff', shadow: 'none', searchBg: 'rgba(255,255,255,0.15)' },
    tags: { bg: 'transparent', tagBg: 'rgba(255,255,255,0.18)', tagText: '#ffffff', activeBg: 'rgba(0,0,0,0.4)', activeText: '#ffffff', activeBorder: '#ffffff' },
  },
  // Saber's "智能主题": deep blue frame
  smart: {
    dark: false,
    pageBg: '#f0f2f5',
    logo: { bg: '#004ca7', text: '#ffffff' },
    sider: {
      bg: '#004ca7', shadow: 'none', text: 'rgba(255,255,255,0.8)', hoverBg: 'rgba(0,0,0,0.1)', hoverText: '#ffffff',
      selectedBg: 'rgba(0,0,0,0.2)', selectedText: '#ffffff', subBg: '#00438f', bar: 'none', barColor: '#ffffff', itemRadius: 0,
    },
    header: { bg: '#004ca7', text: '#ffffff', shadow: 'none', searchBg: 'rgba(255,255,255,0.15)' },
    tags: { bg: '#ffffff', tagBg: '#f0f2f5', tagText: 'rgba(0,0,0,0.65)', activeBg: '#004ca7', activeText: '#ffffff', activeBorder: '#004ca7' },
  },
  // navy sidebar, selected item filled with the primary colour, boxed tags
  iview: {
    dark: false,
    pageBg: '#f5f7f9',
    logo: { bg: '#001529', text: '#ffffff' },
    sider: {
      bg: '#001529', shadow: 'none', text: 'rgba(255,255,255,0.65)', hoverBg: 'transparent', hoverText: '#ffffff',
      selectedBg: primary, selectedText: '#ffffff', subBg: '#000c17', bar: 'none', barColor: primary, itemRadius: 0,
    },
    header: { bg: '#ffffff', text: '#515a6e', shadow: '0 1px 1px rgba(0,0,0,0.08)', searchBg: '#f5f7f9' },
    tags: { bg: '#f0f0f0', tagBg: '#ffffff', tagText: '#515a6e', activeBg: '#ffffff', activeText: primary, activeBorder: '#e8eaec' },
  },
  // black and gold
  vip: {
    dark: false,
    pageBg: '#f0f2f5',
    logo: { bg: '#17181d', text: '#f6ca9d' },
    sider: {
      bg: '#17181d', shadow: 'none', text: 'rgba(246,202,157,0.7)', hoverBg: 'rgba(246,202,157,0.08)', hoverText: '#f6ca9d',
      selectedBg: 'rgba(246,202,157,0.12)', selectedText: '#f6ca9d', subBg: '#121317', bar: 'left', barColor: '#f6ca9d', itemRadius: 0,
    },
    header: { bg: '#20222a', text: 'rgba(246,202,157,0.85)', shadow: 'none', searchBg: 'rgba(246,202,157,0.1)' },
    tags: { bg: '#ffffff', tagBg: '#ffffff', tagText: 'rgba(0,0,0,0.45)', activeBg: '#fffaf3', activeText: '#c8955b', activeBorder: '#f6ca9d' },
  },
  // sky-blue gradient header over a light sidebar
  cool: {
    dark: false,
    pageBg: '#eef3f8',
    logo: { bg: '#f7fbff', text: '#008ad3' },
    sider: {
      bg: '#f7fbff', shadow: '2px 0 6px rgba(0,21,41,0.15)', text: 'rgba(0,0,0,0.85)', hoverBg: 'rgba(37,175,243,0.08)', hoverText: '#000000',
      selectedBg: primarySoft(0.14), selectedText: primary, subBg: '#f7fbff', bar: 'none', barColor: primary, itemRadius: 0,
    },
    header: { bg: 'linear-gradient(120deg, #25aff3, #008ad3)', text: '#ffffff', shadow: 'none', searchBg: 'rgba(255,255,255,0.2)' },
    tags: { bg: 'transparent', tagBg: '#ffffff', tagText: '#909399', activeBg: '#ffffff', activeText: primary, activeBorder: 'transparent' },
  },
  // d2-admin: one pale blue-grey for the whole frame, white cards
  d2: {
    dark: false,
    pageBg: '#ebf1f6',
    logo: { bg: '#ebf1f6', text: primary },
    sider: {
      bg: '#ebf1f6', shadow: 'none', text: '#606266', hoverBg: 'rgba(255,255,255,0.5)', hoverText: primary,
      selectedBg: 'rgba(255,255,255,0.7)', selectedText: primary, subBg: '#e4ecf3', bar: 'none', barColor: primary, itemRadius: 4,
    },
    header: { bg: '#ebf1f6', text: '#606266', shadow: 'none', searchBg: 'rgba(255,255,255,0.7)' },
    tags: { bg: '#ebf1f6', tagBg: 'rgba(0,0,0,0.03)', tagText: '#606266', activeBg: '#ffffff', activeText: primary, activeBorder: '#cfd7e5' },
  },
  // all white, soft primary tint and a bar on the right of the selected item
  hey: {
    dark: false,
    pageBg: '#f3f6f8',
    logo: { bg: '#ffffff', text: primary },
    sider: {
      bg: '#ffffff', shadow: '0 1px 4px rgba(0,21,41,0.08)', text: 'rgba(49,58,70,0.8)', hoverBg: 'transparent', hoverText: primary,
      selectedBg: primarySoft(0.1), selectedText: primary, subBg: '#ffffff', bar: 'right', barColor: primary, itemRadius: 0,
    },
    header: { bg: '#ffffff', text: 'rgba(0,0,0,0.65)', shadow: '0 1px 4px rgba(0,21,41,0.08)', searchBg: '#f3f6f8' },
    tags: { bg: '#f3f6f8', tagBg: 'transparent', tagText: 'rgba(0,0,0,0.65)', activeBg: '#ffffff', activeText: primary, activeBorder: 'transparent' },
  },
  // AdminLTE's blue skin: charcoal sidebar, blue header, light grey page
  lte: {
    dark: false,
    pageBg: '#ecf0f5',
    logo: { bg: '#367fa9', text: '#ffffff' },
    sider: {
      bg: '#222d32', shadow: 'none', text: '#b8c7ce', hoverBg: '#1e282c', hoverText: '#ffffff',
      selectedBg: '#1e282c', selectedText: '#ffffff', subBg: '#2c3b41', bar: 'left', barColor: primary, itemRadius: 0,
    },
    header: { bg: '#3c8dbc', text: '#ffffff', shadow: 'none', searchBg: 'rgba(255,255,255,0.15)' },
    tags: { bg: '#ffffff', tagBg: '#f4f4f4', tagText: '#444444', activeBg: '#ffffff', activeText: '#3c8dbc', activeBorder: '#3c8dbc' },
  },
};
