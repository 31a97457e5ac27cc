// What use cases need from outside the process, declared once. Adapters implement these types;
// src/cli/wiring.ts builds the implementations and hands them to the use cases; unit tests hand them
// fakes (test/unit/usecases-*.test.ts). A use case imports nothing from src/adapters.
