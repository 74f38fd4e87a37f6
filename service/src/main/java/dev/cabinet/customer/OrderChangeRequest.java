package dev.cabinet.customer;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The body of {@code PATCH /orders/{id}}. */
public record OrderChangeRequest(
        @Schema(example = "shipped")
        @NotNull @Pattern(regexp = OrderStatus.PATTERN, message = "must be one of " + OrderStatus.PATTERN) String status) {
}
