package dev.cabinet.customer;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/** The body of {@code PATCH /orders/{id}}. */
public record OrderChangeRequest(
        @NotNull @Pattern(regexp = OrderStatus.PATTERN, message = "must be one of " + OrderStatus.PATTERN) String status) {
}
