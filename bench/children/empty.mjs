/** Reference point for P2/P6: a Node process that does nothing but report. */
import { peakRssMb, report } from './report.mjs';

report({ firstCallMs: performance.now(), ...peakRssMb() });
