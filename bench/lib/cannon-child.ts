// Runs one autocannon load (options as JSON in argv[2]) and prints its summary as JSON.
import { runCannon, type CannonOptions } from './cannon.ts';

const result = await runCannon(JSON.parse(process.argv[2]) as CannonOptions);
process.stdout.write(JSON.stringify(result));
