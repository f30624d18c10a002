// The package's runtime export is a single object (`module.exports = library`, also reachable as
// `.murmurHash3`); @types/murmurhash3js-revisited describes a different shape, so we declare it here.
declare module "murmurhash3js-revisited" {
  interface MurmurHash3Library {
    readonly version: string;
    inputValidation: boolean;
    readonly x86: {
      hash32(bytes: ArrayLike<number>, seed?: number): number;
      hash128(bytes: ArrayLike<number>, seed?: number): string;
    };
    readonly x64: {
      hash128(bytes: ArrayLike<number>, seed?: number): string;
    };
  }
  const murmurHash3: MurmurHash3Library;
  export default murmurHash3;
}
