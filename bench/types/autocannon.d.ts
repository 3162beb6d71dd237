// Minimal types for the parts of autocannon's programmatic API the benchmarks use
// (autocannon ships no type declarations).
declare module 'autocannon' {
  interface Histo {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
    p999?: number;
    p97_5: number;
    total?: number;
  }
  interface Result {
    title?: string;
    url: string;
    duration: number;
    connections: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    mismatches: number;
    resets: number;
    '2xx': number;
    '4xx': number;
    '5xx': number;
    latency: Histo;
    requests: Histo & { sent: number };
    throughput: Histo;
    start: Date;
    finish: Date;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    pipelining?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    overallRate?: number;
    connectionRate?: number;
    title?: string;
    requests?: { method?: string; path?: string; body?: string; headers?: Record<string, string> }[];
  }
  interface Instance {
    stop(): void;
    on(event: string, listener: (...args: unknown[]) => void): void;
  }
  function autocannon(options: Options, callback?: (err: Error | null, result: Result) => void): Instance & Promise<Result>;
  namespace autocannon {
    export type { Result, Options, Instance };
  }
  export default autocannon;
}
