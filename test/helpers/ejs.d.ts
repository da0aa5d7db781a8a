// ejs ships no type declarations; the tests only hand it to @fastify/view as its engine.
declare module 'ejs' {
  const ejs: {
    render (template: string, data?: object, options?: object): string
    compile (template: string, options?: object): (data?: object) => string
  }
  export default ejs
}
