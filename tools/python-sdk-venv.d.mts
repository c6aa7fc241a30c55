// Types of tools/python-sdk-venv.mjs for the tests that import it.
export const sdkRequirements: string;
export const sdkVenv: string;
export const sdkPython: string;
export function ensureSdkVenv(): string;
export function installSdk(sdk: string): void;
