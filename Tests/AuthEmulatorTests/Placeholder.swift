// Placeholder so the test target exists until its suites land.
