/** @license */
export { a } from './a.js'
console.log(1)
