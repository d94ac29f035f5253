// Internal: not exported from the package.
//
// The ESM and the CommonJS builds loaded in one process, or two installed versions of the package, each define their
// own classes: `instanceof` tells the other copy's outcome, context or hook from any other object. A brand does not: it
// is a property of the class's prototype under a `Symbol.for('agent-hooks.<Class>')` key, which every copy shares.

/**
 * The value of every brand: the version of the public shape a branded object offers the other copies, which use it
 * through that shape only (never its private fields). A change that breaks the shape bumps it, so that older copies
 * refuse the newer objects instead of misreading them.
 */
export const BRAND = 1;

/** The key of the brand of the class named `name`; the same symbol in every copy and every realm. */
export const brandKey = (name: string): symbol => Symbol.for(`agent-hooks.${name}`);

const ordinaryHasInstance = Function.prototype[Symbol.hasInstance];

// The classes this package brands; a user's subclass of one of them is not among them.
const brands = new WeakMap<object, symbol>();

/** Brands `cls` with `key`: its instances, and those of its subclasses, carry it. Call it from a static block. */
export function brand(cls: { readonly prototype: object }, key: symbol): void {
  Object.defineProperty(cls.prototype, key, { value: BRAND });
  brands.set(cls, key);
}

/**
 * A stand-in for `cls` on the right of `instanceof` that finds the instances this copy's `cls` (or a subclass) made,
 * and no other copy's: it shares `cls.prototype` but not its `Symbol.hasInstance`. For the hot paths that tell this
 * copy's own objects apart (an outcome from a promise or a context), where V8 compiles a plain `instanceof` against a
 * constant to a few instructions; a `Function.prototype[Symbol.hasInstance].call(cls, value)` there costs a quarter
 * of a dispatch through Hook classes.
 */
export function ownClass<T>(cls: { readonly prototype: T }): abstract new (...args: never[]) => T {
  function Own(): void {}
  Own.prototype = cls.prototype;
  return Own as unknown as abstract new (...args: never[]) => T;
}

/**
 * `value instanceof cls` across copies, for a class's `Symbol.hasInstance`: by brand for a class this package defines,
 * so that an instance of another copy counts and an instance of a sibling class does not; by the prototype chain for a
 * user's subclass, which has no brand of its own.
 */
export function isInstance<T>(cls: { readonly prototype: T }, value: unknown): value is T {
  const key = brands.get(cls);
  if (key === undefined) return ordinaryHasInstance.call(cls as unknown as () => void, value);
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[key] === BRAND;
}
