// Builds DOM nodes from data. Text is always added as text nodes, never parsed as HTML: names,
// reasons and advice come from the pipeline and must not be able to inject markup.

const SVG_NS = 'http://www.w3.org/2000/svg';

function build(node, attributes, children) {
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined && value !== false) {
      node.setAttribute(name, value === true ? '' : String(value));
    }
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) {
      node.append(child instanceof Node ? child : String(child));
    }
  }
  return node;
}

/** An HTML element: el('p', {class: 'note'}, 'text', otherNode). */
export function el(tag, attributes = {}, ...children) {
  return build(document.createElement(tag), attributes, children);
}

/** An SVG element, same shape as el(). */
export function svg(tag, attributes = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attributes, children);
}
