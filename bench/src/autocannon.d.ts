// The part of autocannon's programmatic API the runner uses.
declare module 'autocannon' {
  interface Histogram { average: number, p50: number, p99: number, min: number, max: number, total: number }
  interface Options {
    url: string
    method?: string
    headers?: Record<string, string>
    body?: string
    connections?: number
    duration?: number
    // A number of requests instead of a duration.
    amount?: number
    expectBody?: string
  }
  interface Result {
    requests: Histogram
    latency: Histogram
    errors: number
    timeouts: number
    non2xx: number
    mismatches: number
  }
  function autocannon (options: Options): Promise<Result>
  export default autocannon
}
