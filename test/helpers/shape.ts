import { setFlagsFromString } from 'node:v8'

// V8's own comparison of two objects' hidden classes. An object with a hidden class of its own
// costs memory for as long as it lives, and V8's time to make that class.
setFlagsFromString('--allow-natives-syntax')
// eslint-disable-next-line no-new-func
export const sameShape = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean
