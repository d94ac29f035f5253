/**
 * `npm run bench`: every benchmark suite, a table on stdout and a JSON report under bench/results/.
 * Figures are ratios against a baseline measured in the same run; absolute numbers vary with the machine.
 */
import { discoveryBench } from './discovery.js';
import { dispatchSuite } from './dispatch.js';
import { printTable, writeReport } from './harness.js';
import { scriptSuite } from './script.js';

const rows = [...(await dispatchSuite()), ...(await scriptSuite()), ...(await discoveryBench())];
printTable(rows);
console.log(`\nReport: ${writeReport(rows)}`);
