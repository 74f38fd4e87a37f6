package dev.cabinet.devservices.deployment;

import io.quarkus.builder.item.SimpleBuildItem;

/** Says the infrastructure's start has begun in the background (CabinetDevServicesProcessor#beginStarting). */
public final class InfrastructureStartingBuildItem extends SimpleBuildItem {
}
