from django import forms

from notices.models import MailChoice


class MailChoiceForm(forms.ModelForm):
    class Meta:
        model = MailChoice
        fields = ("invitation", "reminder", "promotion", "report", "language")
