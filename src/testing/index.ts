// Test doubles for users of embabel-ts (exported as "embabel-ts/testing").
export {};
