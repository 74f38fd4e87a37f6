/**
 * Runtime side of Cabinet's Docker-free Dev Services: nothing runs here (the deployment module starts the
 * infrastructure) but the one interface the application implements for the Dev UI, {@link LoggedEventReader}.
 */
package dev.cabinet.devservices;
