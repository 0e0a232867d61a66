import type { ResourceDef } from '@console/contract';
import type { I18nText } from '@console/contract/i18n';
import type { ComponentType } from 'react';

/**
 * What a business area brings to the console (web/src/areas/<area>/index.ts, listed once in areas/index.ts).
 * The manifests are on the first page (the router reads their routes): they hold names, lazy loaders and
 * types only, never a screen, a definition or a string bundle.
 */
export interface AreaManifest<M extends object = object> {
  /** the area's name, the same as its folder in contract/src/areas and server/src/areas */
  name: string;
  /**
   * the console's own pages of its definitions marked `page: 'custom'`: a lazy list (`./pages.ts`) of loaders
   * by resource code, each page its own chunk; loaded with the first menu page, so off the first page
   */
  pages?: () => Promise<{ pages: CustomPages }>;
  /** pages at fixed paths outside the server's menu (the business forms the workflow links to) */
  routes?: readonly AreaRoute[];
  /** the types of its lazy string bundles by i18n key (`messageTypes<{ flow: typeof flowZh }>()`) */
  messages?: MessageTypes<M>;
}

/** What a custom page gets: its resource's definition (it usually renders `ResourcePage` with props). */
export interface CustomPageProps {
  def: ResourceDef;
}

export type CustomPageLoader = () => Promise<{ default: ComponentType<CustomPageProps> }>;

export type CustomPages = Readonly<Record<string, CustomPageLoader>>;

/** A page at a fixed path, loaded on first visit. */
export interface AreaRoute {
  /** a react-router path; its `:params` segments come last */
  path: string;
  /** its title and tab label, shown before its chunk (with its strings) has loaded */
  title: I18nText;
  load: () => Promise<ComponentType>;
  /** the page shows generic lists or forms: they get the definitions (references, sub-resources) */
  resources?: boolean;
}

declare const messageTypesOf: unique symbol;

/** The bundles' types only: each screen registers its strings when its chunk loads (i18n/lazy.ts `addMessages`). */
export interface MessageTypes<M extends object> {
  readonly [messageTypesOf]?: M;
}

export function messageTypes<M extends object>(): MessageTypes<M> {
  return {};
}

/** Declares an area: the type checks the manifest and keeps its message types for the registry. */
export function defineArea<M extends object = object>(area: AreaManifest<M>): AreaManifest<M> {
  return area;
}

type MessagesOf<A> = A extends AreaManifest<infer M> ? M : never;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The lazy string bundles of every area, by i18n key (i18n/lazy.ts `LazyMessages`). */
export type AreasMessages<Areas extends readonly AreaManifest[]> = Intersection<MessagesOf<Areas[number]>>;
