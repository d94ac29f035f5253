/**
 * The bridge's ratios under each Node, side by side: one line per case, one column per Node, each cell that case's
 * ratio against the bare `node -e ''` of the same Node in the same rounds (see bench/bridge.ts), with its target.
 * Printed after the table when the bridge suite ran; the same figures are the rows of the report.
 */
import type { Row } from './harness.js';

const ON_NODE = / on (Node [\d.]+)$/;

/** The Markdown table of the rows of suites measured `on Node X`, or `undefined` when there are none. */
export function sideBySide(rows: readonly Row[]): string | undefined {
  const measured = rows.filter((r) => ON_NODE.test(r.suite) && r.ratio !== undefined);
  if (measured.length === 0) return undefined;
  const nodes = [...new Set(measured.map((r) => ON_NODE.exec(r.suite)![1]!))];
  const cases = [...new Set(measured.map((r) => r.name))];
  const cell = (name: string, node: string): string => {
    const row = measured.find((r) => r.name === name && ON_NODE.exec(r.suite)![1] === node);
    if (row?.ratio === undefined) return '';
    return `${row.ratio.toFixed(2)}×${row.pass === false ? ' (missed)' : ''}`;
  };
  const target = (name: string): string => measured.find((r) => r.name === name && r.target !== undefined)?.target?.label ?? '';
  return [
    `| against a bare \`node -e ''\` of the same Node | ${nodes.join(' | ')} | target |`,
    `|---|${nodes.map(() => '---|').join('')}---|`,
    ...cases.map((name) => `| ${name} | ${nodes.map((node) => cell(name, node)).join(' | ')} | ${target(name)} |`),
  ].join('\n');
}
