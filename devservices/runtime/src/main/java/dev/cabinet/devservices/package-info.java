/** Runtime side of Cabinet's Docker-free Dev Services: nothing runs here; the deployment module starts the infrastructure. */
package dev.cabinet.devservices;
