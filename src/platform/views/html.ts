import { type ComponentChildren, Fragment, type VNode } from 'preact';

// Pages are Preact JSX, rendered to a string here rather than by preact-render-to-string: our
// components are plain functions of their props (no hooks, context or class components), so a
// page is one walk over the tree. preact-render-to-string sets up a component instance and
// runs Preact's option hooks for every component, and tests every attribute name against
// several regular expressions; on a small page that was most of the cost of the request.
// The output is the same, byte for byte (html.test.ts renders every page both ways).

const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'command', 'embed', 'hr', 'img', 'input', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const UNSAFE_NAME = /[\s\n\\/='"\0<>]/;
const NAMESPACED = /^(xlink|xmlns|xml)([A-Z])/;
const HTML_LOWER_CASE = /^(?:accessK|auto[A-Z]|cell|ch|col|cont|cross|dateT|encT|form[A-Z]|frame|hrefL|inputM|maxL|minL|noV|playsI|popoverT|readO|rowS|src[A-Z]|tabI|useM|item[A-Z])/;
const SVG_CAMEL_CASE =
  /^ac|^ali|arabic|basel|cap|clipPath$|clipRule$|color|dominant|enable|fill|flood|font|glyph[^R]|horiz|image|letter|lighting|marker[^WUH]|overline|panose|pointe|paint|rendering|shape|stop|strikethrough|stroke|text[^L]|transform|underline|unicode|units|^v[^i]|^w|^xH/;
const ENUMERATED = new Set(['draggable', 'spellcheck']);
const ESCAPED = /["&<]/;

/** Escapes text and attribute values (attributes are always double-quoted). */
export function escapeHtml(text: string): string {
  if (!ESCAPED.test(text)) return text;
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const entity = code === 34 ? '&quot;' : code === 38 ? '&amp;' : code === 60 ? '&lt;' : null;
    if (entity === null) continue;
    out += text.slice(last, i) + entity;
    last = i + 1;
  }
  return out + text.slice(last);
}

/** How a prop is written: its attribute name, whether true/false become strings, or skipped. */
interface AttributeRule {
  name: string;
  stringify: boolean;
}

const SKIPPED: AttributeRule = { name: '', stringify: false };
const htmlRules = new Map<string, AttributeRule>();
const svgRules = new Map<string, AttributeRule>();

function ruleFor(prop: string, svg: boolean): AttributeRule {
  const rules = svg ? svgRules : htmlRules;
  let rule = rules.get(prop);
  if (rule === undefined) {
    rule = computeRule(prop, svg);
    rules.set(prop, rule);
  }
  return rule;
}

const VDOM_PROPS = new Set(['key', 'ref', '__self', '__source']);
/** Props whose attribute has another name (React's DOM property names). */
const RENAMED: Record<string, string> = {
  htmlFor: 'for',
  className: 'class',
  defaultChecked: 'checked',
  defaultSelected: 'selected',
  acceptCharset: 'accept-charset',
  httpEquiv: 'http-equiv',
};

/** Preact's mapping of prop names to attribute names, worked out once per name. */
function computeRule(prop: string, svg: boolean): AttributeRule {
  if (VDOM_PROPS.has(prop) || UNSAFE_NAME.test(prop)) return SKIPPED;
  const renamed = Object.hasOwn(RENAMED, prop) ? RENAMED[prop] : undefined;
  if (renamed !== undefined) return { name: renamed, stringify: false };
  if (NAMESPACED.test(prop)) return { name: prop.replace(NAMESPACED, '$1:$2').toLowerCase(), stringify: false };
  if (prop[4] === '-' || ENUMERATED.has(prop)) return { name: prop, stringify: true };
  if (svg) {
    if (!SVG_CAMEL_CASE.test(prop)) return { name: prop, stringify: false };
    return { name: prop === 'panose1' ? 'panose-1' : prop.replace(/([A-Z])/g, '-$1').toLowerCase(), stringify: false };
  }
  return { name: HTML_LOWER_CASE.test(prop) ? prop.toLowerCase() : prop, stringify: false };
}

type Props = Record<string, unknown> & { children?: ComponentChildren };

/** Whether an option's value is its select's value: 3 and "3" are the same choice, as in Preact. */
function sameOptionValue(selectValue: unknown, optionValue: unknown): boolean {
  if (selectValue === optionValue) return true;
  if (selectValue === null || selectValue === undefined || optionValue === null || optionValue === undefined) {
    return (selectValue === null || selectValue === undefined) && (optionValue === null || optionValue === undefined);
  }
  return String(selectValue) === String(optionValue);
}

function renderNode(node: ComponentChildren, svg: boolean, selectValue: unknown): string {
  if (node === null || node === undefined || typeof node === 'boolean') return '';
  if (typeof node === 'string') return escapeHtml(node);
  if (typeof node === 'number' || typeof node === 'bigint') return String(node);
  if (Array.isArray(node)) {
    let out = '';
    for (const child of node) out += renderNode(child as ComponentChildren, svg, selectValue);
    return out;
  }
  // Preact's VNodes have `constructor: undefined`; any other object (say, parsed JSON that
  // reached a view by mistake) renders as nothing, as in Preact.
  if (typeof node !== 'object' || node.constructor !== undefined) return '';
  const vnode = node as VNode<Props>;
  const { type, props } = vnode;
  if (typeof type === 'function') {
    if (type === Fragment) return renderNode(props.children, svg, selectValue);
    if (type.prototype?.render) throw new Error('class components are not supported by renderPage');
    return renderNode((type as (props: Props) => ComponentChildren)(props), svg, selectValue);
  }
  return renderElement(type, props, svg, selectValue);
}

function renderElement(type: string, props: Props, svg: boolean, inheritedSelectValue: unknown): string {
  if (UNSAFE_NAME.test(type)) throw new Error(`${type} is not a valid HTML tag name`);
  let open = `<${type}`;
  let inner: string | undefined;
  let children: ComponentChildren = null;
  let selectValue = inheritedSelectValue;
  for (const prop in props) {
    let value = props[prop];
    if (prop === 'children') {
      children = value as ComponentChildren;
      continue;
    }
    if (typeof value === 'function' && prop !== 'class' && prop !== 'className') continue;
    if ((prop === 'htmlFor' && 'for' in props) || (prop === 'className' && 'class' in props)) continue;
    if (prop === 'dangerouslySetInnerHTML') {
      inner = (value as { __html?: string } | null)?.__html;
      continue;
    }
    let name: string;
    if (prop === 'value' || prop === 'defaultValue') {
      name = 'value';
      if (type === 'textarea') {
        children = value as ComponentChildren;
        continue;
      }
      if (type === 'select') {
        selectValue = value;
        continue;
      }
      if (type === 'option' && sameOptionValue(selectValue, value) && !('selected' in props)) open += ' selected';
    } else if (prop === 'style' && typeof value === 'object' && value !== null) {
      throw new Error('style objects are not supported by renderPage (the CSP forbids inline styles)');
    } else {
      const rule = ruleFor(prop, svg);
      if (rule === SKIPPED) continue;
      name = rule.name;
      if (rule.stringify && value !== null && value !== undefined) value = String(value);
    }
    if (value === null || value === undefined || value === false) continue;
    open += value === true || value === '' ? ` ${name}` : ` ${name}="${escapeHtml(String(value))}"`;
  }
  let html: string;
  if (inner) html = inner;
  else if (typeof children === 'string') html = escapeHtml(children);
  else html = renderNode(children, type === 'svg' || (type !== 'foreignObject' && svg), selectValue);
  if (!html && VOID_ELEMENTS.has(type)) return `${open}/>`;
  return `${open}>${html}</${type}>`;
}

/** A JSX tree as HTML, every text and attribute value escaped. */
export function renderToHtml(node: ComponentChildren): string {
  return renderNode(node, false, undefined);
}
